/** The ACR of `acr_values` that asks for a second factor (OpenID Provider Authentication Policy Extension 1.0). */
export const MULTI_FACTOR_ACR = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
