/** Statistics schemas, from the service's OpenAPI document (`DailyStats`, `GetActiveUsersCountStatsResponseContent`, the query of GET /stats/daily). */
import { Type } from '@sinclair/typebox';

export const ActiveUsersResponse = Type.Number({ description: 'Number of active users in the last 30 days.' });

export const DailyStatsResponse = Type.Array(
  Type.Object(
    {
      date: Type.String({ description: 'Date these events occurred in ISO 8601 format.' }),
      logins: Type.Integer({ description: 'Number of logins on this date.' }),
      signups: Type.Integer({ description: 'Number of signups on this date.' }),
      leaked_passwords: Type.Integer({ description: 'Number of breached-password detections on this date.' }),
      updated_at: Type.String({ description: 'Date and time this stats entry was last updated in ISO 8601 format.' }),
      created_at: Type.String({ description: 'Approximate date and time the first event occurred in ISO 8601 format.' }),
    },
    { additionalProperties: false },
  ),
);

const Day = (description: string) => Type.String({ pattern: '^[0-9]{8}$', description });

export const DailyQuery = Type.Object(
  {
    from: Type.Optional(Day('Optional first day of the date range (inclusive) in YYYYMMDD format')),
    to: Type.Optional(Day('Optional last day of the date range (inclusive) in YYYYMMDD format')),
  },
  { additionalProperties: true },
);
