/**
 * The social strategies' logins, one provider module each (their options
 * and user ids: src/domain/connections/strategies/), through the shared
 * OAuth 2.0 / OpenID Connect flow of ../oauth2-upstream/.
 */
import { socialLogin } from '../oauth2-upstream/index.js';
import { apple } from './apple.js';
import { facebook } from './facebook.js';
import { github } from './github.js';
import { googleOauth2 } from './google-oauth2.js';
import { linkedin } from './linkedin.js';
import { oauth2 } from './oauth2.js';
import { windowslive } from './windowslive.js';

export const socialLogins = [googleOauth2, github, apple, windowslive, facebook, linkedin, oauth2].map(socialLogin);
