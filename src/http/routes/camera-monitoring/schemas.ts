import { Type } from 'typebox';

export const DateTime = Type.String({ format: 'date-time' });

export const License = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  size: Type.Integer({ description: 'Maximum number of cameras allowed' }),
  va_type: Type.String(),
  expiration: DateTime,
  created: DateTime,
  modified: DateTime,
});

export const ErrorMessage = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Scores = Type.Record(Type.String(), Type.Number(), { description: 'Anomaly key to score (0..1)' });

export const Camera = Type.Object({
  id: Type.Integer(),
  serial: Type.String(),
  name: Type.String(),
  license: Type.String(),
  tags: Type.Array(Type.String()),
  notes: Type.String(),
  latest_status: Type.Union([Type.String(), Type.Null()]),
  created: DateTime,
  modified: DateTime,
});

export const CameraLog = Type.Object({
  id: Type.Integer(),
  camera_serial: Type.String(),
  camera_name: Type.String(),
  status: Type.String(),
  anomalies: Scores,
  snapshot: Nullable(Type.String()),
  created: DateTime,
});

export const Alert = Type.Object({
  id: Type.Integer(),
  license: Type.String(),
  sent: Type.Boolean(),
  cameras: Type.Array(
    Type.Object({
      serial: Type.String(),
      name: Type.String(),
      status: Type.String(),
      anomalies: Scores,
      snapshot: Nullable(Type.String()),
      reference_image: Nullable(Type.String()),
    }),
  ),
  created: DateTime,
});

export const Message = Type.Object({ message: Type.String() });

export const LicenseParams = Type.Object({ license_id: Type.Integer({ minimum: 1 }) });
export const CameraParams = Type.Object({ license_id: Type.Integer({ minimum: 1 }), serial: Type.String({ minLength: 1, maxLength: 128 }) });

export const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' });
export const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'Page size (Vigil extension)' })),
  // Bounded so a huge offset (1e20) is a 400, not a number the database cannot take.
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Items to skip (Vigil extension)' })),
};
