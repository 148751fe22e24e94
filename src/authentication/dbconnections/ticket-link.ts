/**
 * The pages behind an emailed ticket link (reset password, verify email)
 * read their parameters the same way: the ticket from the query (the link)
 * or the form (its post), bounded; a missing or oversized one gets the
 * page's "link not valid" page, as an unknown or spent ticket does.
 */
import type { FastifyRequest } from 'fastify';
import { PageError } from '../errors.js';
import type { PageDocument } from '../pages/html.js';
import { pageParams } from '../params.js';

/** Longer than any ticket Gatehouse issues; the store is not asked about anything longer. */
const MAX_TICKET = 200;

/** The link's ticket and the page's other parameters (`names`), or the page `invalid` as a 400. */
export function ticketLinkParams<N extends string>(request: FastifyRequest, names: readonly N[], invalid: () => PageDocument): { ticket: string } & Partial<Record<N, string>> {
  const params = pageParams(request, ['ticket', ...names]);
  const ticket = params.ticket;
  if (ticket === undefined || ticket.length === 0 || ticket.length > MAX_TICKET) throw new PageError(400, invalid());
  return { ...(params as Partial<Record<N, string>>), ticket };
}
