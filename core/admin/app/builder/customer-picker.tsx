import { useState } from 'preact/hooks';
import { ajax } from '../api.ts';
import { Field } from '../ui.tsx';

/** A client as billing_search_clients lists it. */
export interface ClientHit {
  id: number;
  name: string;
  email: string;
  company: string;
}

/** Finds a client as the person types (billing_search_clients) and offers each match as a button. */
export function CustomerPicker(p: {
  label: string;
  clientId: number | null;
  onType: (term: string) => void;
  onChoose: (client: ClientHit) => void;
}) {
  const [clientResults, setClientResults] = useState<ClientHit[]>([]);
  async function searchClients(term: string) {
    p.onType(term);
    if (term.trim().length < 1) return setClientResults([]);
    try {
      setClientResults(await ajax('billing_search_clients', { term }));
    } catch {
      setClientResults([]);
    }
  }
  return (
    <div class="billing-client-pick">
      <Field
        id="b-client"
        label="Find a client"
        hint={p.clientId ? `Client #${p.clientId} chosen` : 'Type a name, e-mail or company; or fill in the customer below.'}
      >
        <input
          id="b-client"
          type="search"
          autocomplete="off"
          value={p.label}
          onInput={(ev) => searchClients((ev.target as HTMLInputElement).value)}
          aria-controls={clientResults.length ? 'b-client-results' : undefined}
        />
      </Field>
      {clientResults.length > 0 && (
        <ul id="b-client-results" class="billing-client-results" aria-label="Matching clients">
          {clientResults.map((c) => (
            <li>
              <button
                type="button"
                onClick={() => {
                  p.onChoose(c);
                  setClientResults([]);
                }}
              >
                Choose {c.name} {c.email ? `(${c.email})` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
