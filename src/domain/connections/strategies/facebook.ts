/**
 * Facebook (`facebook`): OAuth 2.0 and the Graph API's `/me`; users
 * `facebook|{id}`. Each flag is the Facebook permission of its name
 * (`public_profile` on by default); `scope` is their comma-separated
 * string, as the service's recordings show.
 */
import { socialStrategy } from './social.js';

const PERMISSIONS = [
  'email', 'groups_access_member_info', 'user_birthday', 'public_profile', 'user_age_range', 'user_friends', 'user_gender', 'user_hometown',
  'user_likes', 'user_link', 'user_location', 'user_photos', 'user_posts', 'user_videos', 'pages_show_list', 'pages_manage_posts',
  'publish_video', 'read_insights', 'ads_read', 'ads_management', 'business_management', 'instagram_basic',
];

export const facebookStrategy = socialStrategy('facebook', 'Facebook', {
  credentials: { client_id: 255, client_secret: 255 },
  flags: Object.fromEntries(PERMISSIONS.map((p) => [p, [p]])),
  defaultFlags: ['public_profile'],
  scopeShape: ',',
});
