/** GET/DELETE /anomaly/blocks/ips/{id}: `id` is an IPv4 or IPv6 address (the document's `AnomalyIPFormat`), checked by the service. */
import { Type } from '@sinclair/typebox';

export const IpParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'IP address to check' }) });

/** 200 of the check: the document gives it no body. */
export const Blocked = Type.Unsafe<undefined>({ type: 'null', description: 'IP address specified is currently blocked.' });
