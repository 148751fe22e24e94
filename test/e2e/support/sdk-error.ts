/** The error an `auth0` SDK call was refused with: its status and the Management API body. */
export type SdkError = { statusCode: number; body: { statusCode: number; errorCode?: string; message: string } };

/** Runs a call that must be refused, and returns its error (fails the test if the call was accepted). */
export async function sdkError(call: () => Promise<unknown>): Promise<SdkError> {
  try {
    await call();
  } catch (error) {
    return error as SdkError;
  }
  throw new Error('the call was accepted');
}
