import type { Config } from "./config.server";
import { publicConfig, type PublicConfig } from "./config.server";
import type { DatabaseHandle } from "./db.server";
import type { Logger } from "./logger.server";
import { loadAuthSecret } from "~/features/auth/credentials.server";
import { AuthService } from "~/features/auth/auth.server";
import { StaffNotifier } from "~/features/submissions/notify.server";
import { SubmissionService } from "~/features/submissions/service.server";
import { ArticlesService } from "~/features/articles/service.server";
import { MemberImportService } from "~/features/member-import/import.server";

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
  /** RSS feeds, articles, featured cards, ingest (engine, lease, scheduler). */
  articles: ArticlesService;
  /** CSV member import (POST /api/upload-users); hooks.afterWrite runs inside its transaction. */
  memberImport: MemberImportService;
}

export function createServices(config: Config, database: DatabaseHandle, logger: Logger): Services {
  const secret = loadAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
  return {
    config,
    publicConfig: publicConfig(config),
    database,
    logger,
    auth: new AuthService(database.db, secret),
    submissions: new SubmissionService(
      database.db,
      new StaffNotifier(
        { smtpUrl: config.SMTP_URL, notifyEmail: config.NOTIFY_EMAIL, mailFrom: config.MAIL_FROM, orgName: config.ORG_NAME },
        logger,
      ),
      logger,
    ),
    articles: new ArticlesService(database.db, config, logger),
    memberImport: new MemberImportService(database.db, database.dialect, secret, logger),
  };
}
