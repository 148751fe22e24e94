/**
 * Google (`google-oauth2`): an OpenID provider (issuer
 * `https://accounts.google.com`); users `google-oauth2|{sub}`. `scope` is
 * computed from the flags as the service's recordings show (`email`,
 * `profile`, `gmail`, `youtube`…); `offline_access` asks Google for a
 * refresh token (`access_type=offline`) rather than for a scope.
 * `allowed_audiences` (1 to 64 client ids) are the native applications'
 * Google client ids whose id_tokens Native Social Login accepts; the
 * browser login's id_token must be issued to `client_id` itself.
 */
import { socialStrategy } from './social.js';

const API = 'https://www.googleapis.com/auth';

export const googleOauth2Strategy = socialStrategy('google-oauth2', 'Google', {
  credentials: { client_id: 255, client_secret: 255 },
  flags: {
    email: ['email'],
    profile: ['profile'],
    gmail: ['https://mail.google.com/mail/feed/atom'],
    youtube: ['https://gdata.youtube.com'],
    calendar: [`${API}/calendar`],
    calendar_events: [`${API}/calendar.events`],
    calendar_events_readonly: [`${API}/calendar.events.readonly`],
    contacts: ['https://www.google.com/m8/feeds/'],
    drive: [`${API}/drive`],
    drive_file: [`${API}/drive.file`],
    drive_readonly: [`${API}/drive.readonly`],
    drive_metadata_readonly: [`${API}/drive.metadata.readonly`],
    analytics: [`${API}/analytics.readonly`],
    tasks: [`${API}/tasks`],
    tasks_readonly: [`${API}/tasks.readonly`],
    offline_access: [],
  },
  defaultFlags: ['email', 'profile'],
  scopeShape: 'array',
  // The client ids of native applications whose Google id_tokens may be exchanged (src/authentication/social-connections/google-native.ts).
  lists: { allowed_audiences: { min: 1, max: 64, each: 255 } },
});
