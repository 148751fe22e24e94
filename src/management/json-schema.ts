/** A node of a JSON Schema as the schema rules of the Management areas read and rewrite it (schemas generated from the service's OpenAPI document). */
export type SchemaNode = Record<string, unknown> & {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  required?: string[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
};
