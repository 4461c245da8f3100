CREATE TABLE "ended_sessions" (
	"exposition_id" uuid NOT NULL,
	"session_hash" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"revision" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ended_sessions_exposition_id_session_hash_pk" PRIMARY KEY("exposition_id","session_hash")
);
--> statement-breakpoint
ALTER TABLE "ended_sessions" ADD CONSTRAINT "ended_sessions_exposition_id_expositions_id_fk" FOREIGN KEY ("exposition_id") REFERENCES "public"."expositions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ended_sessions" ADD CONSTRAINT "ended_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ended_sessions_organization_id_revision_index" ON "ended_sessions" USING btree ("organization_id","revision");--> statement-breakpoint
CREATE INDEX "ended_sessions_expires_at_index" ON "ended_sessions" USING btree ("expires_at");