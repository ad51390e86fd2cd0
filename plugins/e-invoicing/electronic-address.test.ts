// The electronic address check agrees with the Peppol rules it stands in for: an address it accepts
// passes Peppol's scheme list (CL008) and identifier checks (PEPPOL-COMMON-R040 to R050), one it refuses
// fails them. The Peppol rules are the oracle (test/helpers/en16931.ts).
import { describe, expect, it } from '@jest/globals';
import { en16931Asserts } from '../../test/helpers/en16931.ts';
import { electronicAddressProblem, type Endpoint } from './electronic-address.ts';

/** The fatal Peppol failures about the buyer's EndpointID of a minimal invoice. */
function peppolSays(address: Endpoint): string[] {
  const xml = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
    <cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="${address.scheme}">${address.id}</cbc:EndpointID></cac:Party></cac:AccountingCustomerParty>
  </Invoice>`;
  return en16931Asserts(xml, 'peppol')
    .filter((a) => a.flag === 'fatal' && /EndpointID/.test(a.location))
    .map((a) => a.id);
}

const CASES: Endpoint[] = [
  { scheme: '0088', id: '4000001123452' }, // GLN
  { scheme: '0088', id: '4000001123453' }, // wrong check digit
  { scheme: '0088', id: '40000011234A2' },
  { scheme: '0208', id: '0403019261' }, // Belgian enterprise number
  { scheme: '0208', id: '0403019262' },
  { scheme: '0192', id: '974760673' }, // Norwegian organisation number
  { scheme: '0192', id: '974760674' },
  { scheme: '0184', id: 'DK12345678' },
  { scheme: '0184', id: '1234567' },
  { scheme: '0007', id: '5560360793' }, // Swedish organisation number
  { scheme: '0007', id: '5560360794' },
  { scheme: '0151', id: '51824753556' }, // Australian Business Number
  { scheme: '0151', id: '51824753557' },
  { scheme: '9930', id: 'DE123456789' },
  { scheme: '0204', id: '04011000-12345-67' }, // Leitweg-ID
  { scheme: 'EM', id: 'ap@example.com' }, // e-mail: XRechnung only
  { scheme: '9999', id: 'X1' },
];

describe('electronicAddressProblem', () => {
  it('accepts exactly what the Peppol rules accept', () => {
    for (const address of CASES) {
      const accepted = electronicAddressProblem(address) === null;
      expect({ address, accepted }).toEqual({ address, accepted: peppolSays(address).length === 0 });
    }
    // both outcomes occur: the oracle is not asleep
    expect(CASES.filter((c) => peppolSays(c).length).length).toBeGreaterThan(5);
  });

  it('refuses identifiers with spaces or over 100 characters', () => {
    expect(electronicAddressProblem({ scheme: '9930', id: 'DE 123456789' })).toMatch(/without spaces/);
    expect(electronicAddressProblem({ scheme: '0204', id: 'x'.repeat(101) })).toMatch(/1 to 100/);
  });
});
