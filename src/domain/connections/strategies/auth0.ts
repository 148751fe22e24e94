/** Database connections (`auth0`): users with a password in Gatehouse's store; options are free-form (password policy and the rest are read where they apply). */
import { plainUserId, type ConnectionStrategy } from './strategy.js';

export const DATABASE_STRATEGY = 'auth0';

export const auth0Strategy: ConnectionStrategy = {
  name: DATABASE_STRATEGY,
  kind: 'database',
  isSocial: false,
  optionsProblem: () => undefined,
  userId: plainUserId(DATABASE_STRATEGY),
};
