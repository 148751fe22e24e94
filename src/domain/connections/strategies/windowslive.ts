/**
 * Microsoft accounts (`windowslive`): the Microsoft identity platform's
 * consumer endpoints and Microsoft Graph's `/v1.0/me`; users
 * `windowslive|{id}` (the Graph id). `scope` is computed from the flags
 * (`graph_user` → `https://graph.microsoft.com/User.Read`; `signin` adds
 * none), as the service's recordings show for `strategy_version` 2.
 */
import { socialStrategy } from './social.js';

const GRAPH = 'https://graph.microsoft.com';

export const windowsliveStrategy = socialStrategy('windowslive', 'Microsoft', {
  credentials: { client_id: 255, client_secret: 255 },
  flags: {
    signin: [],
    graph_user: [`${GRAPH}/User.Read`],
    graph_user_read_all: [`${GRAPH}/User.Read.All`],
    offline_access: ['offline_access'],
    graph_calendars: [`${GRAPH}/Calendars.Read`],
    graph_calendars_update: [`${GRAPH}/Calendars.ReadWrite`],
    graph_contacts: [`${GRAPH}/Contacts.Read`],
    graph_contacts_update: [`${GRAPH}/Contacts.ReadWrite`],
    graph_files: [`${GRAPH}/Files.Read`],
    graph_files_update: [`${GRAPH}/Files.ReadWrite`],
    graph_mail: [`${GRAPH}/Mail.Read`],
    graph_mail_send: [`${GRAPH}/Mail.Send`],
    graph_notes: [`${GRAPH}/Notes.Read`],
    graph_tasks: [`${GRAPH}/Tasks.Read`],
  },
  defaultFlags: ['signin', 'graph_user'],
  scopeShape: 'array',
});
