import { Type } from '@sinclair/typebox';

const akamai_enabled = Type.Boolean({ description: 'Indicates if incoming Akamai Headers should be processed' });

/** GET and PATCH's answer (`GetSupplementalSignalsResponseContent`). */
export const SupplementalSignals = Type.Object({ akamai_enabled }, { additionalProperties: false });

/** PATCH's body (`UpdateSupplementalSignalsRequestContent`). */
export const UpdateSupplementalSignalsBody = Type.Object({ akamai_enabled }, { additionalProperties: false });
