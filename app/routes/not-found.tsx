import { data } from "react-router";
import { NotFound } from "~/components/NotFound";

export async function loader() {
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
