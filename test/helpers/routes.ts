import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The path as registered, parameters as `:name`, e.g. `/v1/webhooks/:id/enable`. */
  url: string;
}

/** Every route the app answers, read from Fastify's own router (`printRoutes`), so a route
 * added later shows up in the tests that walk this list without anyone adding it by hand.
 * HEAD (automatic for GET) and the CORS preflight `OPTIONS *` are left out. */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of tree.split('\n')) {
    // Each level indents by four characters ("│   " or "    "), then "├── " or "└── ".
    const m = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    // A wildcard prints as a bare "*" under its parent ("docs" then "*" for `/docs/*`).
    stack.push(m[2] === '*' && !stack.join('').endsWith('/') ? '/*' : m[2]!);
    const url = stack.join('').replace(/\/{2,}/g, '/');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url });
    }
  }
  return routes;
}
