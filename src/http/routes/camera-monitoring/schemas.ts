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
