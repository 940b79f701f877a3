import type { MetaDescriptor } from "react-router";

export interface PageMetaInput {
  title: string;
  description: string;
  noindex?: boolean;
}

interface MetaArgsLike {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown; loaderData?: unknown } | undefined>;
}

/**
 * Title, description, Open Graph and twitter card (summary_large_image) for one page;
 * absolute canonical URL and share image (PUBLIC_URL, else the requested origin).
 */
export function pageMeta(args: MetaArgsLike, page: PageMetaInput): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === "root");
  const rootData = (root?.loaderData ?? root?.data) as { config?: { orgName: string }; siteUrl?: string } | undefined;
  const orgName = rootData?.config?.orgName ?? "American Homeowners Association";
  const title = page.title.includes(orgName) ? page.title : `${page.title} | ${orgName}`;
  const base = rootData?.siteUrl;
  const url = base ? `${base}${args.location.pathname}` : undefined;
  const image = base ? `${base}/share-card.png` : "/share-card.png";
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: orgName },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
  if (url) {
    tags.push({ property: "og:url", content: url });
    tags.push({ tagName: "link", rel: "canonical", href: url });
  }
  if (page.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  return tags;
}
