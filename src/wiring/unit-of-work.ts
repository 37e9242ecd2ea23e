import type { SqlJobQueue } from '../queue/sql-job-queue.js';
import type { UnitOfWork } from '../services/unit-of-work.js';
import type { Db } from '../storage/db/database.js';
import { AlertRepository } from '../storage/repositories/alert.repository.js';
import { CameraRepository } from '../storage/repositories/camera.repository.js';
import { ImageRepository } from '../storage/repositories/image.repository.js';
import { LicenseRepository } from '../storage/repositories/license.repository.js';
import { PlateReadRepository } from '../storage/repositories/plate-read.repository.js';
import { PlateVisitRepository } from '../storage/repositories/plate-visit.repository.js';
import { WatchlistRepository } from '../storage/repositories/watchlist.repository.js';

/** The UnitOfWork services use: a Kysely transaction and repositories bound to it. */
export function unitOfWork(db: Db, queue: SqlJobQueue): UnitOfWork {
  return (work) => db.transaction().execute((trx) => work({
    cameras: new CameraRepository(trx),
    licenses: new LicenseRepository(trx),
    alerts: new AlertRepository(trx),
    images: new ImageRepository(trx),
    plateReads: new PlateReadRepository(trx),
    plateVisits: new PlateVisitRepository(trx),
    watchlists: new WatchlistRepository(trx),
    jobs: queue.within(trx),
  }));
}
