import { Link } from "react-router";

export function NotFound() {
  return (
    <section className="container-page py-24 text-center">
      <title>Page not found | American Homeowners Association</title>
      <meta name="robots" content="noindex" />
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">404</p>
      <h1 className="mt-2 font-serif text-3xl font-bold text-brand-900">Page not found</h1>
      <p className="mx-auto mt-4 max-w-md text-slate-600">
        The page you are looking for does not exist or has moved. Check the address, or head back to the home page.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn-primary">
          Back to Home
        </Link>
        <Link to="/contact-us" className="btn-outline">
          Contact Us
        </Link>
      </div>
    </section>
  );
}
