import type { Insertable, Kysely, Selectable } from "kysely";
import { nowIso, type Dialect } from "~/platform/db.server";
import { findKindRow, SubmissionStore, type KindRow } from "~/features/submissions/store.server";
import type { CasesTable, Database } from "~/platform/schema";
import type { Application } from "./contract";

/** A stored application, with its submission's status, dates and submitter. */
export type ApplicationRow = KindRow<"applications">;
export type CaseRow = Selectable<CasesTable>;
/** A case as imported: the case number and any of the lookup fields. */
export type CaseValues = Omit<Insertable<CasesTable>, "id" | "created_at" | "updated_at">;

const bool = (v: boolean) => (v ? 1 : 0);

/** Data access for applications and case records. */
export class ApplicationsRepository {
  private store: SubmissionStore;

  constructor(
    private db: Kysely<Database>,
    dialect: Dialect,
  ) {
    this.store = new SubmissionStore(db, dialect);
  }

  /** Stores a checked application as pending and returns the stored row. */
  async insert(a: Application, submittedBy: number | null, now = nowIso()): Promise<ApplicationRow> {
    const { id } = await this.store.store(
      "applications",
      {
        case_number: a.caseNumber,
        amount_of_coverage: a.amountOfCoverage,
        applicant_name: a.applicantName,
        co_applicant_name: a.coApplicantName,
        dob: a.dob,
        co_dob: a.coDob,
        gender: a.gender,
        co_gender: a.coGender,
        email: a.email,
        co_email: a.coEmail,
        phone: a.phone,
        co_phone: a.coPhone,
        todays_date: a.todaysDate,
        address1: a.address1,
        address2: a.address2,
        city: a.city,
        state: a.state,
        zip: a.zip,
        beneficiary_name: a.beneficiaryName,
        beneficiary_relationship: a.beneficiaryRelationship,
        beneficiary_phone: a.beneficiaryPhone,
        beneficiary_email: a.beneficiaryEmail,
        payment_monthly_billing: bool(a.paymentMonthlyBilling),
        payment_automatic_checking: bool(a.paymentAutomaticChecking),
        payment_use_credit_card: bool(a.paymentUseCreditCard),
        cc_name_on_card: a.ccNameOnCard,
        cc_cardholder_signature: a.ccCardholderSignature,
        cc_process_date: a.ccProcessDate,
        confirm_accuracy: bool(a.confirmAccuracy),
        applicant_signature: a.applicantSignature,
        co_applicant_signature: a.coApplicantSignature,
        ach_applicant_signature: a.achApplicantSignature,
        ach_co_applicant_signature: a.achCoApplicantSignature,
      },
      { submittedAt: now, submittedBy },
    );
    const row = await this.find(id);
    if (!row) throw new Error(`application ${id} was stored but cannot be read`);
    return row;
  }

  find(id: number): Promise<ApplicationRow | undefined> {
    return findKindRow(this.db, "applications", id);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("applications")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  findCase(caseNumber: string): Promise<CaseRow | undefined> {
    return this.db.selectFrom("cases").selectAll().where("case_number", "=", caseNumber).executeTakeFirst();
  }

  /**
   * Inserts or updates case records by case number, all or nothing; says how many were new.
   * Columns a row leaves out are cleared on update: the file is the truth for its cases.
   */
  async upsertCases(rows: CaseValues[], now = nowIso()): Promise<{ added: number; updated: number }> {
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const existing = await trx
          .selectFrom("cases")
          .select("case_number")
          .where(
            "case_number",
            "in",
            chunk.map((r) => r.case_number),
          )
          .execute();
        added += chunk.length - existing.length;
        await trx
          .insertInto("cases")
          .values(chunk.map((r) => ({ ...EMPTY_CASE, ...r, created_at: now, updated_at: now })))
          .onConflict((oc) =>
            oc.column("case_number").doUpdateSet((eb) => ({
              first_name: eb.ref("excluded.first_name"),
              last_name: eb.ref("excluded.last_name"),
              applicant_name: eb.ref("excluded.applicant_name"),
              coverage: eb.ref("excluded.coverage"),
              email: eb.ref("excluded.email"),
              phone: eb.ref("excluded.phone"),
              address1: eb.ref("excluded.address1"),
              city: eb.ref("excluded.city"),
              state: eb.ref("excluded.state"),
              zip: eb.ref("excluded.zip"),
              gender: eb.ref("excluded.gender"),
              updated_at: eb.ref("excluded.updated_at"),
            })),
          )
          .execute();
      }
      return { added, updated: rows.length - added };
    });
  }
}

const EMPTY_CASE = {
  first_name: null,
  last_name: null,
  applicant_name: null,
  coverage: null,
  email: null,
  phone: null,
  address1: null,
  city: null,
  state: null,
  zip: null,
  gender: null,
};
