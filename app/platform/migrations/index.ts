import type { AppMigration } from "./types";
import { m0001_auth } from "./0001_auth";
import { m0002_submissions } from "./0002_submissions";
import { m0003_articles } from "./0003_articles";
import { m0004_rate_limits } from "./0004_rate_limits";
import { m0005_videos } from "./0005_videos";
import { m0006_audit_log } from "./0006_audit_log";
import { m0007_applications } from "./0007_applications";
import { m0009_submission_list_indexes } from "./0009_submission_list_indexes";
import { m0010_member_import_claims } from "./0010_member_import_claims";
import { m0011_video_catalogue_placements } from "./0011_video_catalogue_placements";
import { m0012_list_pages_and_search } from "./0012_list_pages_and_search";
import { m0014_feed_health } from "./0014_feed_health";
import { m0015_submission_notes } from "./0015_submission_notes";
import { m0016_application_members } from "./0016_application_members";
import { m0017_member_accounts } from "./0017_member_accounts";
import { m0018_submission_assignments } from "./0018_submission_assignments";
import { m0026_membership } from "./0026_membership";
import { m0027_membership_reminders } from "./0027_membership_reminders";
import { m0028_submission_identity } from "./0028_submission_identity";
import { m0029_page_generations } from "./0029_page_generations";
import { m0030_submissions_table } from "./0030_submissions_table";
import { m0031_kind_fields_and_member_links } from "./0031_kind_fields_and_member_links";
import { m0033_refunds_and_carried_money } from "./0033_refunds_and_carried_money";
import { m0034_membership_co_insured } from "./0034_membership_co_insured";
import { m0036_leases } from "./0036_leases";
import { m0037_email_changes } from "./0037_email_changes";
import { m0038_online_payments } from "./0038_online_payments";
import { m0039_announcements } from "./0039_announcements";
import { m0040_payments_import_mappings } from "./0040_payments_import_mappings";

/** Every migration in order. Names sort; never edit one that has landed, add a new one. */
export const migrations: Record<string, AppMigration> = {
  "0001_auth": m0001_auth,
  "0002_submissions": m0002_submissions,
  "0003_articles": m0003_articles,
  "0004_rate_limits": m0004_rate_limits,
  "0005_videos": m0005_videos,
  "0006_audit_log": m0006_audit_log,
  "0007_applications": m0007_applications,
  "0009_submission_list_indexes": m0009_submission_list_indexes,
  "0010_member_import_claims": m0010_member_import_claims,
  "0011_video_catalogue_placements": m0011_video_catalogue_placements,
  "0012_list_pages_and_search": m0012_list_pages_and_search,
  "0014_feed_health": m0014_feed_health,
  "0015_submission_notes": m0015_submission_notes,
  "0016_application_members": m0016_application_members,
  "0017_member_accounts": m0017_member_accounts,
  "0018_submission_assignments": m0018_submission_assignments,
  "0026_membership": m0026_membership,
  "0027_membership_reminders": m0027_membership_reminders,
  "0028_submission_identity": m0028_submission_identity,
  "0029_page_generations": m0029_page_generations,
  "0030_submissions_table": m0030_submissions_table,
  "0031_kind_fields_and_member_links": m0031_kind_fields_and_member_links,
  "0033_refunds_and_carried_money": m0033_refunds_and_carried_money,
  "0034_membership_co_insured": m0034_membership_co_insured,
  "0036_leases": m0036_leases,
  "0037_email_changes": m0037_email_changes,
  "0038_online_payments": m0038_online_payments,
  "0039_announcements": m0039_announcements,
  "0040_payments_import_mappings": m0040_payments_import_mappings,
};
