import type { FastifyInstance } from 'fastify';
import type { Container } from '../../../container.js';
import { licenseRoutes } from './licenses.routes.js';

/** The spec writes `camera-monitoring`; the public service and its clients use `vision-alert`.
 * Both prefixes serve identical routes. */
export const CAMERA_PREFIXES = ['/v1/camera-monitoring', '/v1/vision-alert'] as const;

export async function cameraMonitoringRoutes(app: FastifyInstance, opts: { container: Container }) {
  const c = opts.container;
  for (const prefix of CAMERA_PREFIXES) {
    await app.register(
      async (family) => {
        family.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), family: 'camera' };
        });
        await family.register(licenseRoutes, { licenses: c.licenses });
      },
      { prefix },
    );
  }
}
