import { useEffect, useId, useRef, useState } from "react";
import { ArrowLeft, ChevronRight, CircleAlert, ExternalLink, Film, LoaderCircle, Play, Search, SearchX } from "lucide-react";
import { errorReason } from "~/platform/json-client";
import { thumbnailUrl, type VideoCategoryCount, type VideoJson } from "./contract";
import { videosApi } from "./api-client";

export const VIDEO_TEXTS = {
  noVideos: "No videos available yet",
  noVideosHint: "Check back soon for new video content in this category.",
  noCategories: "No categories found",
  noCategoriesHint: "Try adjusting your search terms.",
} as const;

type Level =
  | { kind: "categories" }
  | { kind: "category"; category: VideoCategoryCount }
  | { kind: "player"; category: VideoCategoryCount; video: VideoJson };

type Load<T> = { state: "loading" } | { state: "error"; message: string } | { state: "ok"; data: T };

/** Categories whose label or value contains the search text (case-insensitive). */
export function filterCategories(categories: VideoCategoryCount[], query: string): VideoCategoryCount[] {
  const q = query.trim().toLowerCase();
  if (!q) return categories;
  return categories.filter((c) => c.label.toLowerCase().includes(q) || c.value.replace(/_/g, " ").includes(q));
}

/**
 * The Video Tutorials dialog body (spec: public-side sections 2, 4, 8): category list with counts
 * and search, then the videos of a category, then a player; 'Back' goes up one level.
 */
export function VideoTutorials() {
  const [level, setLevel] = useState<Level>({ kind: "categories" });
  const [query, setQuery] = useState("");
  const [categories, setCategories] = useState<Load<VideoCategoryCount[]>>({ state: "loading" });
  const [videos, setVideos] = useState<Load<VideoJson[]>>({ state: "loading" });
  const headingRef = useRef<HTMLHeadingElement>(null);

  async function loadCategories() {
    setCategories({ state: "loading" });
    try {
      setCategories({ state: "ok", data: await videosApi.categories() });
    } catch (err) {
      setCategories({ state: "error", message: errorReason(err) });
    }
  }

  async function loadVideos(category: string) {
    setVideos({ state: "loading" });
    try {
      setVideos({ state: "ok", data: await videosApi.list(category) });
    } catch (err) {
      setVideos({ state: "error", message: errorReason(err) });
    }
  }

  useEffect(() => {
    void loadCategories();
  }, []);

  // Moving between levels puts keyboard focus on the new level's heading.
  useEffect(() => {
    if (level.kind !== "categories") headingRef.current?.focus();
  }, [level]);

  const openCategory = (category: VideoCategoryCount) => {
    setLevel({ kind: "category", category });
    void loadVideos(category.value);
  };
  const back = () => {
    if (level.kind === "player") setLevel({ kind: "category", category: level.category });
    else setLevel({ kind: "categories" });
  };

  if (level.kind === "player") {
    const { video } = level;
    return (
      <div data-testid="video-player-view">
        <BackButton onClick={back} />
        <h3 ref={headingRef} tabIndex={-1} className="mt-3 text-lg font-semibold text-brand-900 focus:outline-none">
          {video.title}
        </h3>
        <div className="mt-3 aspect-video w-full overflow-hidden rounded-lg bg-black">
          <iframe
            src={`${video.embedUrl}?autoplay=1&rel=0`}
            title={video.title}
            className="h-full w-full"
            allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
        <VideoMeta video={video} />
      </div>
    );
  }

  if (level.kind === "category") {
    return (
      <div data-testid="video-category-view">
        <BackButton onClick={back} />
        <h3 ref={headingRef} tabIndex={-1} className="mt-3 text-lg font-semibold text-brand-900 focus:outline-none">
          {level.category.label}
        </h3>
        {videos.state === "loading" ? (
          <Busy text="Loading videos..." />
        ) : videos.state === "error" ? (
          <LoadFailed message={videos.message} onRetry={() => void loadVideos(level.category.value)} />
        ) : videos.data.length === 0 ? (
          <Empty
            icon={<Film className="h-8 w-8 text-slate-400" aria-hidden />}
            title={VIDEO_TEXTS.noVideos}
            hint={VIDEO_TEXTS.noVideosHint}
          />
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2" aria-label={`${level.category.label} videos`}>
            {videos.data.map((video) => (
              <li key={video.id}>
                <VideoCard video={video} onOpen={() => setLevel({ kind: "player", category: level.category, video })} />
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  const shown = categories.state === "ok" ? filterCategories(categories.data, query) : [];
  return (
    <div data-testid="video-categories-view">
      <SearchBox value={query} onChange={setQuery} />
      {categories.state === "loading" ? (
        <Busy text="Loading categories..." />
      ) : categories.state === "error" ? (
        <LoadFailed message={categories.message} onRetry={() => void loadCategories()} />
      ) : shown.length === 0 ? (
        <Empty
          icon={<SearchX className="h-8 w-8 text-slate-400" aria-hidden />}
          title={VIDEO_TEXTS.noCategories}
          hint={VIDEO_TEXTS.noCategoriesHint}
        />
      ) : (
        <ul className="mt-4 grid gap-2 sm:grid-cols-2" aria-label="Video categories">
          {shown.map((c) => (
            <li key={c.value}>
              <button
                type="button"
                onClick={() => openCategory(c)}
                className="group flex w-full items-center justify-between gap-3 rounded-lg border border-slate-200 px-4 py-3 text-left hover:border-brand-500 hover:bg-brand-50"
              >
                <span className="font-medium text-brand-900">{c.label}</span>
                <span className="flex items-center gap-2">
                  <span
                    className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700"
                    aria-label={`${c.count} ${c.count === 1 ? "video" : "videos"}`}
                  >
                    {c.count}
                  </span>
                  <ChevronRight className="h-4 w-4 text-slate-400 group-hover:text-brand-700" aria-hidden />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        Search categories
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
        <input
          id={id}
          type="search"
          className="field-input pl-9"
          placeholder="Search categories..."
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="off"
        />
      </div>
    </div>
  );
}

/** A thumbnail that turns into the player in place on click; the title opens the player view. */
function VideoCard({ video, onOpen }: { video: VideoJson; onOpen: () => void }) {
  const [playing, setPlaying] = useState(false);
  const [quality, setQuality] = useState<"maxresdefault" | "hqdefault" | "none">("maxresdefault");
  return (
    <article data-testid="video-card" className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="relative aspect-video bg-slate-900">
        {playing ? (
          <iframe
            src={`${video.embedUrl}?autoplay=1&rel=0`}
            title={video.title}
            className="h-full w-full"
            allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <button
            type="button"
            onClick={() => setPlaying(true)}
            className="group absolute inset-0 h-full w-full"
            aria-label={`Play ${video.title}`}
          >
            {quality !== "none" ? (
              <img
                src={thumbnailUrl(video.youtube_id, quality)}
                alt=""
                loading="lazy"
                className="h-full w-full object-cover"
                onError={() => setQuality((q) => (q === "maxresdefault" ? "hqdefault" : "none"))}
                onLoad={(e) => {
                  // A missing maxres image comes back as a 120x90 grey placeholder, not an error.
                  if (quality === "maxresdefault" && e.currentTarget.naturalWidth <= 120) setQuality("hqdefault");
                }}
              />
            ) : (
              <Film className="mx-auto h-10 w-10 text-slate-500" aria-hidden />
            )}
            <span className="absolute inset-0 flex items-center justify-center bg-black/20 group-hover:bg-black/35">
              <span className="flex h-14 w-14 items-center justify-center rounded-full bg-red-600 text-white shadow-lg">
                <Play className="ml-1 h-7 w-7" aria-hidden />
              </span>
            </span>
          </button>
        )}
      </div>
      <div className="p-4">
        <h4 className="font-semibold text-brand-900">
          <button type="button" onClick={onOpen} className="text-left hover:underline">
            {video.title}
          </button>
        </h4>
        {video.duration ? <p className="mt-1 text-xs text-slate-600">Duration {video.duration}</p> : null}
        {video.description ? <p className="mt-2 line-clamp-3 text-sm text-slate-700">{video.description}</p> : null}
      </div>
    </article>
  );
}

function VideoMeta({ video }: { video: VideoJson }) {
  return (
    <div className="mt-3 text-sm">
      {video.duration ? <p className="text-slate-600">Duration {video.duration}</p> : null}
      {video.description ? <p className="mt-2 text-slate-700">{video.description}</p> : null}
      <a
        href={video.url}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-3 inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
      >
        Watch on YouTube
        <ExternalLink className="h-4 w-4" aria-hidden />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </div>
  );
}

function BackButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} className="btn-ghost -ml-2 px-2">
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Back
    </button>
  );
}

function Busy({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center justify-center gap-2 py-10 text-slate-600">
      <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
      {text}
    </p>
  );
}

function Empty({ icon, title, hint }: { icon: React.ReactNode; title: string; hint: string }) {
  return (
    <div className="mt-4 flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 px-6 py-10 text-center">
      {icon}
      <p className="mt-3 font-semibold text-brand-900">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{hint}</p>
    </div>
  );
}

function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mt-4 flex flex-col items-center rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center">
      <CircleAlert className="h-7 w-7 text-red-600" aria-hidden />
      <p className="mt-2 text-sm text-red-900">{message}</p>
      <button type="button" className="btn-primary mt-4" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}
