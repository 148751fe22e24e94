/** Errors of the clients' Management API resources. */
import { managementErrors } from '../../platform/http/errors.js';

export const notFound = () => managementErrors.notFound('The client does not exist', 'inexistent_client');
