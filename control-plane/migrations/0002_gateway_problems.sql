CREATE TABLE "gateway_problems" (
	"organization_id" uuid NOT NULL,
	"gateway_id" text NOT NULL,
	"exposition_id" uuid NOT NULL,
	"message" text NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_problems_organization_id_gateway_id_exposition_id_pk" PRIMARY KEY("organization_id","gateway_id","exposition_id")
);
--> statement-breakpoint
ALTER TABLE "gateway_problems" ADD CONSTRAINT "gateway_problems_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_problems" ADD CONSTRAINT "gateway_problems_exposition_id_expositions_id_fk" FOREIGN KEY ("exposition_id") REFERENCES "public"."expositions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_problems" ADD CONSTRAINT "gateway_problems_organization_id_gateway_id_gateways_organization_id_id_fk" FOREIGN KEY ("organization_id","gateway_id") REFERENCES "public"."gateways"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_problems_exposition_id_index" ON "gateway_problems" USING btree ("exposition_id");