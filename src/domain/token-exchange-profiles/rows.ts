/**
 * Custom token exchange profiles (migration 0110): a `subject_token_type`
 * bound to the custom-token-exchange action that validates such tokens.
 */
export interface TokenExchangeProfileRow {
  tenant_id: string;
  /** `tep_…` */
  id: string;
  name: string;
  subject_token_type: string;
  action_id: string;
  type: 'custom_authentication';
  created_at: string;
  updated_at: string;
}
