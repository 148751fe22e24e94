/**
 * The English texts of every screen Gatehouse renders, by prompt and screen
 * (the service's names where it has the screen). `${name}` is a variable the
 * page fills in (shown in bold in running text). The other languages hold the
 * same keys and variables (the type checker and
 * test/domain/branding/texts.test.ts check it).
 */
export const en = {
  common: {
    common: {
      supportText: 'Need help?',
      supportLinkText: 'Contact support',
      logoAltText: '${companyName}',
      errorPageTitle: 'Authorization error',
      errorTitle: 'Something went wrong',
      expiredPageTitle: 'Login not valid',
      expiredTitle: 'This login has expired',
      expiredDescription: 'This login page is no longer valid. Go back to the application and sign in again.',
      refusedPageTitle: 'Request refused',
      refusedTitle: 'Request refused',
      refusedDescription: 'This form could not be verified. Go back to the application and sign in again.',
      refusedLinkDescription: 'This form could not be verified. Open the link from your email again.',
      invalidLinkPageTitle: 'Link not valid',
      invalidLinkTitle: 'This link is not valid',
      ruleMet: 'met',
      ruleNotMet: 'not met',
      continueButtonText: 'Continue',
    },
  },
  login: {
    login: {
      pageTitle: 'Log in to ${clientName}',
      title: 'Log in',
      description: 'Log in to continue to ${clientName}.',
      emailLabel: 'Email address',
      usernameOrEmailLabel: 'Username or email address',
      passwordLabel: 'Password',
      buttonText: 'Log in',
      forgotPasswordText: 'Forgot your password?',
      signupActionText: 'No account yet?',
      signupActionLinkText: 'Sign up',
      'wrong-credentials': 'Wrong email or password.',
      'user-blocked': 'This user is blocked.',
      'too-many-attempts': 'Your account has been blocked after multiple consecutive login attempts.',
      'no-db-connection': 'No database connection is available to log in to this application.',
    },
  },
  'login-password': {
    'login-password': {
      title: 'Enter your password',
      description: 'Enter your password to continue to ${clientName}.',
      editIdentifierText: 'Edit',
      buttonText: 'Log in',
    },
  },
  signup: {
    signup: {
      pageTitle: 'Sign up to ${clientName}',
      title: 'Sign up',
      description: 'Create your account to continue to ${clientName}.',
      emailLabel: 'Email address',
      usernameLabel: 'Username',
      passwordLabel: 'Password',
      buttonText: 'Sign up',
      loginActionText: 'Already have an account?',
      loginActionLinkText: 'Log in',
      policyTitle: 'Your password must meet these rules:',
      'user-exists': 'An account with this email or username already exists. Log in instead.',
      'password-too-weak': 'Your password is too weak.',
      'could-not-create': 'The account could not be created.',
      'no-db-connection': 'No database connection is available to sign up to this application.',
    },
  },
  'reset-password': {
    'reset-password-request': {
      pageTitle: 'Forgot your password?',
      title: 'Forgot your password?',
      description: 'Enter your email address and we will send you a link to choose a new password.',
      emailLabel: 'Email address',
      buttonText: 'Send the link',
      backToLoginLinkText: 'Back to log in',
      'no-db-connection': 'No database connection is available for this application.',
    },
    'reset-password-email': {
      pageTitle: 'Check your email',
      title: 'Check your email',
      description: 'If an account exists for that address, we have sent it a link to choose a new password.',
      backToLoginLinkText: 'Back to log in',
    },
    'reset-password': {
      pageTitle: 'Reset your password',
      title: 'Reset your password',
      description: 'Choose a new password for ${email}.',
      policyTitle: 'The password must meet these rules:',
      passwordLabel: 'New password',
      reEnterPasswordLabel: 'Confirm new password',
      buttonText: 'Set password',
      'password-mismatch': 'The two passwords do not match.',
      'password-too-weak': 'The password is too weak: it does not meet the rules below.',
    },
    'reset-password-success': {
      pageTitle: 'Password changed',
      title: 'Password changed',
      description: 'The password of ${email} has been changed. You can now sign in with it.',
    },
    'reset-password-error': {
      description: 'The password reset link is invalid, has expired, or was already used. Ask for a new one.',
    },
  },
  'email-verification': {
    'email-verification': {
      pageTitle: 'Verify your email',
      title: 'Verify your email',
      description: 'Confirm that ${email} is your address.',
      buttonText: 'Verify my email',
    },
    'email-verification-result': {
      pageTitle: 'Email verified',
      title: 'Email verified',
      description: 'Thank you. The address ${email} is verified.',
      errorDescription: 'The verification link is invalid, has expired, or was already used.',
    },
  },
  consent: {
    consent: {
      pageTitle: 'Authorize ${clientName}',
      title: 'Authorize ${clientName}',
      description: 'Hi ${userName}, ${clientName} is asking for access to your account:',
      descriptionWithApi: 'Hi ${userName}, ${clientName} is asking for access to your account and to ${apiName}:',
      acceptButtonText: 'Accept',
      declineButtonText: 'Decline',
    },
  },
  logout: {
    logout: {
      pageTitle: 'Log out?',
      title: 'Log out?',
      description: '${clientName} asks to end your session. Do you want to log out?',
      descriptionNoClient: 'An application asks to end your session. Do you want to log out?',
      buttonText: 'Log out',
    },
    'logout-complete': {
      pageTitle: 'Logged out',
      title: 'Logged out',
      description: 'You have been logged out.',
    },
    'logout-aborted': {
      pageTitle: 'Logout error',
      title: 'Oops!, something went wrong',
    },
  },
  mfa: {
    'mfa-login-options': {
      pageTitle: 'Verify your identity',
      title: 'Verify your identity',
      description: 'Two-step verification is on for ${clientName}.',
      useOtpText: 'Use your authenticator app',
      useEmailText: 'Get a code by email',
      useSmsText: 'Get a code by text message',
      useRecoveryCodeText: 'Use a recovery code',
      buttonText: 'Continue',
      'wrong-code': 'That code is not right. Try again.',
      'too-many-failures': 'Too many wrong codes. Wait a few minutes before trying again.',
    },
    'mfa-unavailable': {
      pageTitle: 'Two-step verification',
      title: 'Two-step verification is required',
      description: 'No second factor can be set up here. Contact the administrator of this application.',
    },
  },
  'mfa-otp': {
    'mfa-otp-challenge': {
      description: 'Enter the 6-digit code from your authenticator app.',
      codeLabel: 'Code',
    },
    'mfa-otp-enrollment-qr': {
      pageTitle: 'Set up two-step verification',
      title: 'Set up two-step verification',
      description: '${clientName} asks for a second step when you log in. Scan this code with an authenticator app (such as Google Authenticator or 1Password).',
      ticketDescription: 'Scan this code with an authenticator app to protect your ${tenantName} account.',
      qrAltText: 'QR code to scan with an authenticator app',
      secretText: 'Or enter this key in the app:',
      codeLabel: 'Code from the app',
      buttonText: 'Verify',
      ticketInvalidDescription: 'The enrollment link is invalid, has expired, or was already used. Ask for a new one.',
      enrolledPageTitle: 'Two-step verification is on',
      enrolledTitle: 'Two-step verification is on',
      enrolledDescription: 'Your authenticator app is set up. You will be asked for a code when you log in.',
    },
  },
  'mfa-email': {
    'mfa-email-challenge': {
      offerText: 'We will send a code to your email address.',
      sendButtonText: 'Email me a code',
      sentText: 'We sent a code to your email address. Enter it to continue.',
      codeLabel: 'Code',
    },
  },
  'mfa-sms': {
    'mfa-sms-challenge': {
      offerText: 'We will send a code to your phone by text message.',
      sendButtonText: 'Text me a code',
      sentText: 'We sent a code to your phone. Enter it to continue.',
      codeLabel: 'Code',
    },
  },
  'mfa-recovery-code': {
    'mfa-recovery-code-challenge': {
      description: 'Enter the recovery code you saved when you set up two-step verification.',
      codeLabel: 'Recovery code',
    },
    'mfa-recovery-code-enrollment': {
      pageTitle: 'Your recovery code',
      title: 'Save your recovery code',
      description: 'If you lose your device, this code lets you log in to ${clientName}. It is shown only now, and works once.',
      ticketDescription: 'If you lose your device, this recovery code lets you log in. It is shown only now, and works once:',
      buttonText: 'I have saved it, continue',
    },
  },
  'login-passwordless': {
    'login-passwordless-email-code': {
      pageTitle: 'Log in to ${clientName}',
      title: 'Log in',
      description: 'Log in to continue to ${clientName}. We will email you a code.',
      emailLabel: 'Email address',
      buttonText: 'Email me a code',
      codePageTitle: 'Enter your code',
      codeTitle: 'Check your email',
      codeDescription: 'We sent a code to ${email}. Enter it to continue to ${clientName}.',
      codeLabel: 'Code',
      codeButtonText: 'Log in',
      resendButtonText: 'Send a new code',
    },
  },
  organizations: {
    'organization-selection': {
      pageTitle: 'Log in to ${clientName}',
      title: 'Enter your organization',
      description: 'Enter the name of your organization to continue to ${clientName}.',
      organizationLabel: 'Organization name',
      buttonText: 'Continue',
      'no-organization': 'No organization was found by that name.',
    },
    'organization-picker': {
      pageTitle: 'Choose an organization',
      title: 'Choose an organization',
      description: 'Choose the organization to continue to ${clientName} with.',
    },
  },
  'device-flow': {
    'device-code-activation': {
      pageTitle: 'Activate your device',
      title: 'Activate your device',
      description: 'Enter the code displayed on your device.',
      codeLabel: 'Code',
      buttonText: 'Continue',
    },
    'device-code-confirmation': {
      pageTitle: 'Confirm your device',
      title: 'Device confirmation',
      description: 'Please confirm that this code is the one displayed on your device, for ${clientName}:',
      confirmButtonText: 'Confirm',
      cancelButtonText: 'Cancel',
    },
    'device-code-activation-allowed': {
      pageTitle: 'Device activated',
      title: "Congratulations, you're all set!",
      description: 'Your device is now connected. You can close this window and go back to it.',
    },
    'device-code-activation-denied': {
      pageTitle: 'Device not activated',
      title: 'Device not activated',
      description: 'The request was cancelled. You can close this window.',
    },
  },
  'async-approval-flow': {
    'async-approval': {
      pageTitle: 'Approve ${clientName}',
      title: 'Approve the sign-in request',
      description: '${clientName} asks you to approve a sign-in. Check that this message is the one shown where you started it:',
      scopesText: 'It asks for:',
      approveButtonText: 'Approve',
      denyButtonText: 'Deny',
    },
    'async-approval-accepted': {
      pageTitle: 'Request approved',
      title: 'Request approved',
      description: 'You can close this window and go back to the application.',
    },
    'async-approval-denied': {
      pageTitle: 'Request denied',
      title: 'Request denied',
      description: 'The application was told. You can close this window.',
    },
    'async-approval-error': {
      pageTitle: 'Link not valid',
      title: 'This link is no longer valid',
      description: 'The request was already answered or has expired.',
    },
  },
} as const;
