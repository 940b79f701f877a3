/**
 * Whether this instance should be sent requests (GET /readyz): not while it starts (migrating,
 * seeding) nor once it drains after SIGTERM, so a load balancer stops sending before the
 * socket closes. /healthz stays the liveness check: alive, database reachable.
 */
export class Readiness {
  constructor(public state: "starting" | "ready" | "draining") {}
}
