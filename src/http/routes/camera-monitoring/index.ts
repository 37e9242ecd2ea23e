import type { TypedApp } from '../../typed-app.js';
import type { AlertService } from '../../../services/camera-monitoring/alerts.service.js';
import type { CamerasService } from '../../../services/camera-monitoring/cameras.service.js';
import type { CameraUploadService } from '../../../services/camera-monitoring/upload.service.js';
import type { ImageService } from '../../../services/images.service.js';
import type { LicenseService } from '../../../services/licenses.service.js';
import type { RateLimiter } from '../../../services/rate-limiter.js';
import { alertRoutes } from './alerts.routes.js';
import { cameraRoutes } from './cameras.routes.js';
import { licenseRoutes } from './licenses.routes.js';
import { uploadRoutes } from './upload.routes.js';

/** The spec writes `camera-monitoring`; the public service and its clients use `vision-alert`.
 * Both prefixes serve identical routes. */
export const CAMERA_PREFIXES = ['/v1/camera-monitoring', '/v1/vision-alert'] as const;

export interface CameraMonitoringRouteDeps {
  camera: { uploads: CameraUploadService; cameras: CamerasService; alerts: AlertService };
  licenses: LicenseService;
  images: ImageService;
  limiter: RateLimiter;
  maxUploadBytes: number;
  uploadRatePerSecond: number;
}

export async function cameraMonitoringRoutes(app: TypedApp, c: CameraMonitoringRouteDeps) {
  for (const prefix of CAMERA_PREFIXES) {
    await app.register(
      async (family) => {
        family.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), family: 'camera' };
        });
        await family.register(licenseRoutes, { licenses: c.licenses });
        await family.register(uploadRoutes, { uploads: c.camera.uploads, maxUploadBytes: c.maxUploadBytes, ratePerSecond: c.uploadRatePerSecond, limiter: c.limiter });
        await family.register(cameraRoutes, { cameras: c.camera.cameras, images: c.images, maxUploadBytes: c.maxUploadBytes });
        await family.register(alertRoutes, { alerts: c.camera.alerts, licenses: c.licenses });
      },
      { prefix },
    );
  }
}
