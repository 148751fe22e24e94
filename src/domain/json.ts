/** A JSON object of a row (a JSON column's value, a member of one). */
export type JsonObject = Record<string, unknown>;
