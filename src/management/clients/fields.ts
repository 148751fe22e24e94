/** Names the `fields` parameter of the client operations accepts, and the app types (spec, Client table). */
export const CLIENT_APP_TYPES: readonly string[] = [
  'native', 'spa', 'regular_web', 'non_interactive', 'resource_server', 'express_configuration', 'rms', 'box', 'cloudbees', 'concur',
  'dropbox', 'mscrm', 'echosign', 'egnyte', 'newrelic', 'office365', 'salesforce', 'sentry', 'sharepoint', 'slack', 'springcm',
  'zendesk', 'zoom', 'sso_integration', 'oag',
];

/** Every field of the Client table, plus the legacy names the scope list of the specification mentions. */
export const CLIENT_FIELDS: ReadonlySet<string> = new Set([
  'client_id', 'tenant', 'name', 'description', 'global', 'client_secret', 'app_type', 'logo_uri', 'is_first_party', 'oidc_conformant',
  'callbacks', 'allowed_origins', 'web_origins', 'client_aliases', 'allowed_clients', 'allowed_logout_urls', 'session_transfer',
  'oidc_logout', 'oidc_backchannel_logout', 'grant_types', 'jwt_configuration', 'signing_keys', 'signing_key', 'encryption_key', 'sso',
  'sso_disabled', 'cross_origin_authentication', 'cross_origin_auth', 'cross_origin_loc', 'custom_login_page_on', 'custom_login_page',
  'custom_login_page_preview', 'form_template', 'addons', 'token_endpoint_auth_method', 'is_token_endpoint_ip_header_trusted',
  'client_metadata', 'mobile', 'initiate_login_uri', 'native_social_login', 'fedcm_login', 'refresh_token', 'default_organization',
  'organization_usage', 'organization_require_behavior', 'organization_discovery_methods', 'client_authentication_methods',
  'require_pushed_authorization_requests', 'require_proof_of_possession', 'signed_request_object', 'token_vault_privileged_access',
  'compliance_level', 'skip_non_verifiable_callback_uri_confirmation_prompt', 'token_exchange', 'par_request_expiry', 'token_quota',
  'express_configuration', 'my_organization_configuration', 'third_party_security_mode', 'redirection_policy',
  'resource_server_identifier', 'async_approval_notification_channels', 'external_metadata_type', 'external_metadata_created_by',
  'external_client_id', 'jwks_uri', 'config_route', 'callback_url_template', 'api_type', 'owners', 'custom_login_page_off',
  'custom_login_page_codeview', 'resource_servers',
]);
