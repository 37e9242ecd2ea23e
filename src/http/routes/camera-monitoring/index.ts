import type { TypedApp } from '../../typed-app.js';
import type { Container } from '../../../container.js';
import { alertRoutes } from './alerts.routes.js';
import { cameraRoutes } from './cameras.routes.js';
import { licenseRoutes } from './licenses.routes.js';
import { uploadRoutes } from './upload.routes.js';

/** The spec writes `camera-monitoring`; the public service and its clients use `vision-alert`.
 * Both prefixes serve identical routes. */
export const CAMERA_PREFIXES = ['/v1/camera-monitoring', '/v1/vision-alert'] as const;

export async function cameraMonitoringRoutes(app: TypedApp, opts: { container: Container }) {
  const c = opts.container;
  for (const prefix of CAMERA_PREFIXES) {
    await app.register(
      async (family) => {
        family.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), family: 'camera' };
        });
        await family.register(licenseRoutes, { licenses: c.licenses });
        await family.register(uploadRoutes, { uploads: c.camera.uploads, maxUploadBytes: c.config.limits.maxUploadBytes, ratePerSecond: c.config.limits.uploadRatePerSecond, limiter: c.rateLimiter });
        await family.register(cameraRoutes, { cameras: c.camera.cameras, images: c.images, maxUploadBytes: c.config.limits.maxUploadBytes });
        await family.register(alertRoutes, { alerts: c.camera.alerts, licenses: c.licenses });
      },
      { prefix },
    );
  }
}
