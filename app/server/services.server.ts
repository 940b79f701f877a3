import type { Config } from "~/platform/config.server";
import { publicConfig, type PublicConfig } from "~/platform/config.server";
import type { DatabaseHandle } from "~/platform/db.server";
import type { Logger } from "~/platform/logger.server";
import { RateLimits } from "~/platform/rate-limit.server";
import { birthdateDigest, loadAuthSecret } from "~/features/auth/credentials.server";
import { normalizeBirthdate } from "~/features/auth/normalize";
import { AuthService } from "~/features/auth/auth.server";
import { StaffNotifier } from "~/features/submissions/intake/notify.server";
import { Mailer } from "~/platform/mailer.server";
import { SubmissionService } from "~/features/submissions/intake/service.server";
import { SubmissionAdminService } from "~/features/submissions/admin/service.server";
import { ArticleQueries } from "~/features/articles/article-queries.server";
import { FeedAdmin } from "~/features/articles/feeds.server";
import { IngestService, type IngestServiceOptions } from "~/features/articles/ingest-service.server";
import { AuditLog } from "~/features/members/audit-log.server";
import { MemberAdminService } from "~/features/members/member-admin.server";
import { VideosService } from "~/features/videos/service.server";
import { ApplicationsService, type ApplicationsServiceOptions } from "~/features/applications/service.server";
import { MembershipFromApplications } from "~/features/applications/membership.server";
import { AccountService } from "~/features/account/service.server";
import { EmailChanges } from "~/features/account/email-change.server";
import { CoverageService } from "~/features/membership/service.server";
import { MembershipDashboard } from "~/features/membership/dashboard.server";
import { CoverageCensus } from "~/features/membership/census.server";
import { PaymentsImportService } from "~/features/membership/payments-import.server";
import { VerifyService } from "~/features/membership/verify.server";
import { ReminderService, type ReminderSettings, type ReminderTransport } from "~/features/membership/reminders.server";
import { MemberImportService } from "~/features/member-import/import.server";
import { OnlinePayments } from "~/features/membership/online/service.server";
import { PAY_PATH } from "~/features/membership/online/texts";
import { AnnouncementService, ANNOUNCEMENT_KIND } from "~/features/announcements/service.server";
import { UnsubscribeTokens } from "~/features/announcements/unsubscribe-token.server";

/**
 * Everything stateful, built once per process and handed to the API routers and, through
 * the load context, to route loaders and actions. Route modules never open their own
 * connections.
 */
export interface Services {
  config: Config;
  publicConfig: PublicConfig;
  database: DatabaseHandle;
  logger: Logger;
  /** The site's own mail to one person (replies, welcomes). */
  mailer: Mailer;
  auth: AuthService;
  /** Public forms: contact messages and request forms. */
  submissions: SubmissionService;
  /** The admin submissions tab: the unified list of all four sources, status, deletion, export. */
  submissionAdmin: SubmissionAdminService;
  /** The knowledge center's articles, the home page's featured cards, the month's digest. */
  articles: ArticleQueries;
  /** RSS feed administration and health (super_admin). */
  feeds: FeedAdmin;
  /** Gathering articles: coordinator, scheduler, default feeds. */
  ingest: IngestService;
  /** The history of staff actions: `audit.record({ actorId, action, rowCount, details })`. */
  audit: AuditLog;
  /** Member list, activation, deletion, export; staff accounts (super_admin). */
  memberAdmin: MemberAdminService;
  /** The video tutorial catalogue. */
  videos: VideosService;
  /** Membership applications and the case lookup behind the form. */
  applications: ApplicationsService;
  /** An approved application made a member (or linked to one), with its welcome e-mail. */
  membership: MembershipFromApplications;
  /** A member's own account page: membership, what they sent, contact details. */
  account: AccountService;
  /** A member's new e-mail address, confirmed by a link sent to it; the old address told. */
  emailChanges: EmailChanges;
  /** Members' plans, payments and refunds, cancellations; coverage computed from them. */
  coverage: CoverageService;
  /** The payment portal's CSV export, previewed and recorded all or nothing. */
  paymentsImport: PaymentsImportService;
  /** The staff dashboard's membership figures (counts by status, the last twelve months). */
  membershipDashboard: MembershipDashboard;
  /** Proof of coverage: the card's token and the public /verify page. */
  verify: VerifyService;
  /** Membership reminder e-mails: planned once a day into an outbox, sent under a lease. */
  reminders: ReminderService;
  /** Staff's announcements to members by coverage, sent through the reminders' outbox (issue 41). */
  announcements: AnnouncementService;
  /** Dues paid online: the provider's signed events, members' payment references and autopay, unmatched payments (issue 40). */
  online: OnlinePayments;
  /** CSV member import (POST /api/upload-users); each import is recorded in the audit log inside its write transaction. */
  memberImport: MemberImportService;
}

/** Settings a test or benchmark passes at construction (short timeouts, no reuse window...). */
export interface ServiceOptions {
  ingest?: Pick<IngestServiceOptions, "fetch" | "ingest">;
  applications?: ApplicationsServiceOptions;
  reminders?: { settings?: Partial<ReminderSettings>; now?: () => Date; transport?: ReminderTransport | null };
}

export function createServices(config: Config, database: DatabaseHandle, logger: Logger, options: ServiceOptions = {}): Services {
  const secret = loadAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
  const rateLimits = new RateLimits(database);
  const audit = new AuditLog(database.db);
  const coverage = new CoverageService(database.db, database.dialect, audit, config.TIME_ZONE);
  const census = new CoverageCensus(database.db, () => coverage.today());
  const mailer = new Mailer({
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    contactEmail: config.CONTACT_EMAIL,
    orgName: config.ORG_NAME,
  });
  // A member's new e-mail address waits for a link sent to it; 5 requests an hour per member,
  // 3 links a day to one address.
  const emailChanges = new EmailChanges({
    db: database.db,
    dialect: database.dialect,
    audit,
    mailer,
    limiter: rateLimits.limiter({ name: "email_change", points: 5, windowMs: 60 * 60_000 }),
    addressLimiter: rateLimits.limiter({ name: "email_change_to", points: 3, windowMs: 24 * 60 * 60_000 }),
    logger,
    orgName: config.ORG_NAME,
    contactEmail: config.CONTACT_EMAIL,
    publicUrl: config.PUBLIC_URL ?? null,
    timeZone: config.TIME_ZONE,
  });
  const outboxTransport =
    options.reminders?.transport !== undefined
      ? options.reminders.transport
      : config.REMINDERS_ENABLED && config.SMTP_URL
        ? new Mailer(
            { smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM, contactEmail: config.CONTACT_EMAIL, orgName: config.ORG_NAME },
            { maxConnections: config.REMINDER_SMTP_CONNECTIONS },
          )
        : null;
  const announcements = new AnnouncementService({
    db: database.db,
    dialect: database.dialect,
    census,
    audit,
    tokens: new UnsubscribeTokens(secret),
    testMail: options.reminders?.transport !== undefined ? options.reminders.transport : mailer.enabled ? mailer : null,
    sending: outboxTransport !== null,
    publicUrl: config.PUBLIC_URL ?? null,
    orgName: config.ORG_NAME,
    timeZone: config.TIME_ZONE,
    logger,
    // Send test: 10 an hour per staff member, to their own address.
    testLimiter: rateLimits.limiter({ name: "announcement_test", points: 10, windowMs: 60 * 60_000 }),
    now: options.reminders?.now,
  });
  const reminders = new ReminderService({
    db: database.db,
    dialect: database.dialect,
    transport: outboxTransport,
    kinds: { [ANNOUNCEMENT_KIND]: announcements.outboxKind },
    mail: {
      orgName: config.ORG_NAME,
      phone: config.CONTACT_PHONE,
      email: config.CONTACT_EMAIL,
      // With online payments, a signed-in member's own plan's payment page (issue 40); else the hand-off.
      paymentUrl: config.PUBLIC_URL
        ? new URL(config.stripe ? PAY_PATH : "/make-payment", config.PUBLIC_URL).toString()
        : config.PAYMENT_PORTAL_URL,
    },
    timeZone: config.TIME_ZONE,
    logger,
    settings: {
      ratePerSecond: config.REMINDER_RATE_PER_SECOND,
      checkEveryMs: config.REMINDER_CHECK_SECONDS * 1000,
      ...options.reminders?.settings,
    },
    now: options.reminders?.now,
  });
  announcements.kick = () => reminders.kick();
  const online = new OnlinePayments({
    db: database.db,
    dialect: database.dialect,
    coverage,
    audit,
    webhookSecret: config.stripe?.webhookSecret ?? null,
    timeZone: config.TIME_ZONE,
    logger,
    onPaymentRecorded: (memberId, paymentId) => reminders.queueReceipt(memberId, paymentId),
  });
  return {
    config,
    publicConfig: publicConfig(config),
    online,
    database,
    logger,
    mailer,
    auth: new AuthService(database.db, secret, rateLimits),
    submissions: new SubmissionService(
      database.db,
      database.dialect,
      new StaffNotifier(
        { smtpUrl: config.SMTP_URL, notifyEmail: config.NOTIFY_EMAIL, mailFrom: config.MAIL_FROM, orgName: config.ORG_NAME },
        logger,
      ),
      logger,
      rateLimits,
    ),
    submissionAdmin: new SubmissionAdminService(database.db, database.dialect, audit, mailer, logger, rateLimits),
    articles: new ArticleQueries(database.db, logger, { orgName: config.ORG_NAME }),
    feeds: new FeedAdmin(database.db, { allowPrivateHosts: config.RSS_ALLOW_PRIVATE_HOSTS }),
    ingest: new IngestService(database.db, logger, {
      intervalMinutes: config.RSS_INGEST_INTERVAL_MINUTES,
      fetch: { allowPrivateHosts: config.RSS_ALLOW_PRIVATE_HOSTS, ...options.ingest?.fetch },
      ingest: options.ingest?.ingest,
      audit,
    }),
    audit,
    memberAdmin: new MemberAdminService(
      database.db,
      database.dialect,
      audit,
      (mmddyy) => birthdateDigest(secret, mmddyy),
      census,
      emailChanges,
    ),
    videos: new VideosService(database.db, logger),
    applications: new ApplicationsService(database.db, database.dialect, config, logger, rateLimits, options.applications),
    account: new AccountService(database.db, audit, emailChanges),
    emailChanges,
    coverage,
    // Every look-up of a card costs its address a point: 30 in 10 minutes.
    verify: new VerifyService(
      database.db,
      secret,
      rateLimits.limiter({ name: "verify_lookup", points: 30, windowMs: 10 * 60_000 }),
      coverage,
    ),
    paymentsImport: new PaymentsImportService(database.db, database.dialect, audit, config.TIME_ZONE, undefined, undefined, census),
    membershipDashboard: new MembershipDashboard(census),
    reminders,
    announcements,
    membership: new MembershipFromApplications({
      db: database.db,
      audit,
      mailer,
      logger,
      digestBirthdate: (birthdate) => birthdateDigest(secret, normalizeBirthdate(birthdate)),
      certificateFormat: config.CERTIFICATE_FORMAT,
      orgName: config.ORG_NAME,
      publicUrl: config.PUBLIC_URL ?? null,
      timeZone: config.TIME_ZONE,
    }),
    memberImport: new MemberImportService(database.db, database.dialect, secret, logger, audit, () => coverage.today(), emailChanges),
  };
}
