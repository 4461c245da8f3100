ALTER TABLE "api_tokens" ADD COLUMN "role" text DEFAULT 'gateway' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "allowed_fqdns" jsonb;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "required_labels" jsonb;--> statement-breakpoint
-- Tokens made before roles existed served gateways or the operator. The narrowest role that
-- keeps each working: operator for those named like the operator's (docs/kubernetes.md names it
-- k8s-operator), gateway for the rest. docs/upgrades.md says how to check and fix.
UPDATE "api_tokens" SET "role" = 'operator' WHERE "name" ILIKE '%operator%';
