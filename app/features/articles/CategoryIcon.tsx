import type { LucideIcon } from "lucide-react";
import {
  BookOpen,
  Cpu,
  Hammer,
  House,
  Leaf,
  Lightbulb,
  Megaphone,
  Newspaper,
  Palette,
  ShieldCheck,
  Sprout,
  Star,
  TrendingUp,
  TriangleAlert,
  Umbrella,
  Wrench,
  Zap,
} from "lucide-react";

/** Icon and gradient per article category (featured slot keys included); class names are literal for Tailwind. */
const VISUALS: Record<string, { icon: LucideIcon; gradient: string }> = {
  home_improvement: { icon: Hammer, gradient: "from-amber-500 to-orange-700" },
  home_remodeling: { icon: House, gradient: "from-orange-500 to-rose-700" },
  decor: { icon: Palette, gradient: "from-fuchsia-500 to-purple-700" },
  maintenance_repair: { icon: Wrench, gradient: "from-slate-500 to-slate-700" },
  home_maintenance: { icon: Wrench, gradient: "from-stone-500 to-stone-700" },
  home_security: { icon: ShieldCheck, gradient: "from-blue-600 to-indigo-800" },
  safety: { icon: TriangleAlert, gradient: "from-red-500 to-red-700" },
  insurance: { icon: Umbrella, gradient: "from-sky-600 to-blue-800" },
  energy_saving_tips: { icon: Zap, gradient: "from-yellow-500 to-amber-700" },
  green_design: { icon: Leaf, gradient: "from-emerald-500 to-green-700" },
  greening_tips: { icon: Sprout, gradient: "from-lime-500 to-green-700" },
  green_living: { icon: Leaf, gradient: "from-emerald-500 to-teal-700" },
  smart_home_tech: { icon: Cpu, gradient: "from-cyan-500 to-blue-700" },
  homeowners_news: { icon: Newspaper, gradient: "from-brand-500 to-brand-800" },
  housing_mortgage_trends: { icon: TrendingUp, gradient: "from-teal-500 to-cyan-800" },
  top_story: { icon: Star, gradient: "from-accent-500 to-orange-700" },
  news: { icon: Megaphone, gradient: "from-indigo-500 to-violet-700" },
  general: { icon: BookOpen, gradient: "from-brand-600 to-brand-900" },
};

const FALLBACK = { icon: Lightbulb, gradient: "from-brand-600 to-brand-900" };

export function categoryVisual(category: string | null | undefined) {
  return (category && VISUALS[category]) || FALLBACK;
}

export function CategoryIcon({ category, className = "h-5 w-5" }: { category: string | null | undefined; className?: string }) {
  const Icon = categoryVisual(category).icon;
  return <Icon className={className} aria-hidden />;
}

/** The generated image of an article without a (working) picture: a gradient with the category icon. */
export function CategoryFallbackImage({ category, className = "" }: { category: string | null | undefined; className?: string }) {
  const { icon: Icon, gradient } = categoryVisual(category);
  return (
    <div
      className={`flex items-center justify-center bg-gradient-to-br ${gradient} ${className}`}
      data-testid="category-fallback-image"
      aria-hidden
    >
      <Icon className="h-14 w-14 text-white/90 drop-shadow" strokeWidth={1.5} />
    </div>
  );
}
