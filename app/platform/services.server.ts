import type { Config } from "./config.server";
import { publicConfig, type PublicConfig } from "./config.server";
import type { DatabaseHandle } from "./db.server";
import type { Logger } from "./logger.server";
import { RateLimits } from "./rate-limit.server";
import { loadAuthSecret } from "~/features/auth/credentials.server";
import { AuthService } from "~/features/auth/auth.server";
import { StaffNotifier } from "~/features/submissions/notify.server";
import { SubmissionService } from "~/features/submissions/service.server";
import { SubmissionAdminService } from "~/features/submissions/admin.server";
import { ArticlesService } from "~/features/articles/service.server";
import { AuditLog } from "~/features/members/audit-log.server";
import { MemberAdminService } from "~/features/members/member-admin.server";
import { VideosService } from "~/features/videos/service.server";

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
  auth: AuthService;
  /** Public forms: contact messages and request forms. */
  submissions: SubmissionService;
  /** The admin submissions tab: the unified list of all four sources, status, deletion, export. */
  submissionAdmin: SubmissionAdminService;
  /** RSS feeds, articles, featured cards, ingest (engine, lease, scheduler). */
  articles: ArticlesService;
  /** The history of staff actions: `audit.record({ actorId, action, rowCount, details })`. */
  audit: AuditLog;
  /** Member list, activation, deletion, export; staff accounts (super_admin). */
  memberAdmin: MemberAdminService;
  /** The video tutorial catalogue. */
  videos: VideosService;
}

export function createServices(config: Config, database: DatabaseHandle, logger: Logger): Services {
  const secret = loadAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
  const rateLimits = new RateLimits(database);
  const audit = new AuditLog(database.db);
  return {
    config,
    publicConfig: publicConfig(config),
    database,
    logger,
    auth: new AuthService(database.db, secret, rateLimits),
    submissions: new SubmissionService(
      database.db,
      new StaffNotifier(
        { smtpUrl: config.SMTP_URL, notifyEmail: config.NOTIFY_EMAIL, mailFrom: config.MAIL_FROM, orgName: config.ORG_NAME },
        logger,
      ),
      logger,
      rateLimits,
    ),
    submissionAdmin: new SubmissionAdminService(database.db, audit),
    articles: new ArticlesService(database.db, config, logger),
    audit,
    memberAdmin: new MemberAdminService(database.db, database.dialect, audit),
    videos: new VideosService(database.db, logger),
  };
}
