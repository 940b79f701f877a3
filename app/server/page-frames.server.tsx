import { renderToString } from "react-dom/server";
import { StaticRouter, UNSAFE_DataRouterStateContext as DataRouterStateContext, type RouterState } from "react-router";
import type { PublicUser } from "~/features/auth/user";
import { AccountContent, overviewOf } from "~/features/account/AccountPage";
import type { SignedInFrameName } from "~/platform/public-page";
import type { PublicConfig } from "~/platform/public-config";
import type { Services } from "./services.server";

/**
 * The own content of a page kept as a frame (docs/decisions/013-account-frame.md): read for the
 * signed-in user and rendered alone for each request, then put into the frame kept per role and
 * shape of the user, where the stand-in's marker stood.
 */
export interface PageFrame {
  /** The route's own loader data for this user, as its loader returns it (one string). */
  data(services: Services, user: PublicUser): Promise<string>;
  /**
   * That content's HTML, as the page renders it in place of the marker. Rendered outside React
   * Router's tree, with what the content reads of it: the address (links) and the root loader's
   * configuration. The frame is kept only once this HTML was found equal to a whole render's.
   */
  render(data: string, at: { path: string; config: PublicConfig; user: PublicUser }): string;
}

export const PAGE_FRAMES: Record<SignedInFrameName, PageFrame> = {
  account: {
    data: async (services, user) => JSON.stringify(await services.account.overview(user.id)),
    render(data, { path, config, user }) {
      const overview = overviewOf(data);
      if (!overview) throw new Error("My account's content is not an overview");
      // What the root loader gives the shared components (usePublicConfig); nothing else of
      // React Router's state is read by the content.
      const state = { loaderData: { root: { user, config } } } as unknown as RouterState;
      return renderToString(
        <DataRouterStateContext.Provider value={state}>
          <StaticRouter location={path}>
            <AccountContent overview={overview} />
          </StaticRouter>
        </DataRouterStateContext.Provider>,
      );
    },
  },
};
