import type { Kysely } from "kysely";
import { nowIso, UniqueViolationError } from "~/platform/db.server";
import { DomainError, parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { ARTICLE_CATEGORIES, categoryLabel } from "~/domain/article-categories";
import { VIDEO_MESSAGES, videoInputSchema, videoOrderSchema, type VideoCategoryCount, type VideoJson } from "./contract";
import { DEFAULT_VIDEOS } from "./default-videos";
import { toVideoJson, VideosRepo } from "./videos-repo.server";

export const DEFAULT_VIDEOS_FLAG = "default_videos_seeded";

/** The video tutorial catalogue: members read it, a super_admin manages it. */
export class VideosService {
  readonly repo: VideosRepo;

  constructor(
    private db: Kysely<Database>,
    private logger: Logger,
  ) {
    this.repo = new VideosRepo(db);
  }

  /** Every article category with its number of videos (0 for most), in the admin's category order. */
  async categories(): Promise<VideoCategoryCount[]> {
    const counts = new Map((await this.repo.counts()).map((c) => [c.category, c.count]));
    return ARTICLE_CATEGORIES.map((value) => ({ value, label: categoryLabel(value), count: counts.get(value) ?? 0 }));
  }

  async list(category?: string): Promise<VideoJson[]> {
    return (await this.repo.list(category)).map(toVideoJson);
  }

  async create(body: unknown): Promise<VideoJson> {
    const input = parseInput(videoInputSchema, body);
    try {
      return toVideoJson(await this.repo.create(input));
    } catch (err) {
      if (err instanceof UniqueViolationError) throw DomainError.conflict(VIDEO_MESSAGES.duplicate);
      throw err;
    }
  }

  async update(id: number, body: unknown): Promise<VideoJson> {
    const input = parseInput(videoInputSchema, body);
    const previous = await this.repo.find(id);
    if (!previous) throw DomainError.notFound(VIDEO_MESSAGES.notFound);
    try {
      const row = await this.repo.update(id, input, previous);
      if (!row) throw DomainError.notFound(VIDEO_MESSAGES.notFound);
      return toVideoJson(row);
    } catch (err) {
      if (err instanceof UniqueViolationError) throw DomainError.conflict(VIDEO_MESSAGES.duplicate);
      throw err;
    }
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw DomainError.notFound(VIDEO_MESSAGES.notFound);
  }

  async reorder(body: unknown): Promise<VideoJson[]> {
    const { category, ids } = parseInput(videoOrderSchema, body);
    if (!(await this.repo.reorder(category, ids))) throw DomainError.conflict(VIDEO_MESSAGES.orderIds);
    return this.list(category);
  }

  /** Seeds the default catalogue once, on the first start, into an empty table; never again. */
  async seedDefaults(): Promise<number> {
    const seeded = await this.db.transaction().execute(async (trx) => {
      const repo = new VideosRepo(trx);
      if (!(await repo.claimFlag(DEFAULT_VIDEOS_FLAG))) return 0;
      if ((await repo.count()) > 0) return 0;
      const now = nowIso();
      const position = new Map<string, number>();
      await trx
        .insertInto("videos")
        .values(
          DEFAULT_VIDEOS.map((v) => {
            const order = position.get(v.category) ?? 0;
            position.set(v.category, order + 1);
            return {
              category: v.category,
              title: v.title,
              description: v.description,
              youtube_id: v.youtubeId,
              duration: null,
              sort_order: order,
              created_at: now,
              updated_at: now,
            };
          }),
        )
        .execute();
      return DEFAULT_VIDEOS.length;
    });
    if (seeded) this.logger.info({ videos: seeded }, "seeded the default video catalogue");
    return seeded;
  }
}
