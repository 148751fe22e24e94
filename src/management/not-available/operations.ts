/**
 * The service's Management API operations, from its OpenAPI document
 * (service-operations.generated.json, extracted by
 * scripts/extract-oas-operations.mjs): each path template with its methods
 * and the scopes each one accepts. Tells a request for an operation of the
 * service apart from a path no service has.
 */
import document from './service-operations.generated.json' with { type: 'json' };

export interface ServiceOperation {
  method: string;
  /** The document's path template, e.g. `/rules/{id}`. */
  template: string;
  /** The scopes of its security requirement: the token needs any one of them. */
  scopes: readonly string[];
}

interface Template {
  template: string;
  pattern: RegExp;
  literals: number;
  methods: Record<string, readonly string[]>;
}

const PARAMETER = /^\{[^/{}]+\}$/;

function compile(template: string, methods: Record<string, readonly string[]>): Template {
  const segments = template.split('/').slice(1);
  const pattern = segments.map((segment) => (PARAMETER.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/');
  return { template, pattern: new RegExp(`^/${pattern}$`), literals: segments.filter((s) => !PARAMETER.test(s)).length, methods };
}

// Most literal segments first, so `/organizations/name/{name}` wins over `/organizations/{id}/…` shapes.
const TEMPLATES: readonly Template[] = Object.entries(document.operations as Record<string, Record<string, string[]>>)
  .map(([template, methods]) => compile(template, methods))
  .sort((a, b) => b.literals - a.literals);

/**
 * The service's operation for `method` on `path` (the path under /api/v2,
 * without its query string), or undefined when the service has none.
 */
export function serviceOperation(method: string, path: string): ServiceOperation | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  for (const { template, pattern, methods } of TEMPLATES) {
    const scopes = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (scopes !== undefined && pattern.test(trimmed)) return { method, template, scopes };
  }
  return undefined;
}

/** Every operation of the service's document, one per method and template. */
export function serviceOperations(): ServiceOperation[] {
  return TEMPLATES.flatMap(({ template, methods }) => Object.entries(methods).map(([method, scopes]) => ({ method, template, scopes })));
}
