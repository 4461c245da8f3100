CREATE TABLE "elicitations" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"exposition_id" uuid NOT NULL,
	"principal" text NOT NULL,
	"tool" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "elicited_credentials" (
	"exposition_id" uuid NOT NULL,
	"principal" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "elicited_credentials_exposition_id_principal_pk" PRIMARY KEY("exposition_id","principal")
);
--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_exposition_id_expositions_id_fk" FOREIGN KEY ("exposition_id") REFERENCES "public"."expositions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicited_credentials" ADD CONSTRAINT "elicited_credentials_exposition_id_expositions_id_fk" FOREIGN KEY ("exposition_id") REFERENCES "public"."expositions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicited_credentials" ADD CONSTRAINT "elicited_credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "elicitations_exposition_id_expires_at_index" ON "elicitations" USING btree ("exposition_id","expires_at");--> statement-breakpoint
CREATE INDEX "elicitations_expires_at_index" ON "elicitations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "elicitations_organization_id_index" ON "elicitations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "elicited_credentials_organization_id_index" ON "elicited_credentials" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "elicited_credentials_exposition_id_updated_at_index" ON "elicited_credentials" USING btree ("exposition_id","updated_at");