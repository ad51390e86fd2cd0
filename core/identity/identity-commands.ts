import { CLI } from '../audit/audit.ts';
import { BillingError } from '../errors.ts';
import type { Identity } from './identity.ts';
import type { User } from './users.ts';
import { table, type Command } from '../cli/command.ts';

const text = (v: string | boolean | undefined, flag: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new BillingError('billing_invalid_argument', `--${flag} needs a value`);
  return v;
};

const listed = (u: User) => ({
  id: u.id,
  login: u.login,
  email: u.email,
  display_name: u.display_name,
  role: u.role,
  company: u.company,
  country: u.country,
  vat: u.vat,
  created: u.created.toISOString(),
});

/** `billing user …` and `billing app-password …` (README.md). Every change is audited as `cli`. */
export function identityCommands(identity: Identity): Command[] {
  return [
    {
      words: ['user', 'create'],
      usage:
        'billing user create <login> --email <e> [--role <role>] [--password <p>] [--display-name <n>] [--country <CC>] [--vat <v>] [--company <c>] [--address <text>] [--locale <tag>]',
      arity: 1,
      options: {
        email: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
        'display-name': { type: 'string' },
        country: { type: 'string' },
        vat: { type: 'string' },
        company: { type: 'string' },
        address: { type: 'string' },
        locale: { type: 'string' },
      },
      run: async ({ args, flags }) => {
        const email = text(flags.email, 'email');
        if (!email) throw new BillingError('billing_invalid_argument', '--email is required');
        const user = await identity.users.create(
          {
            login: args[0]!,
            email,
            role: text(flags.role, 'role'),
            password: text(flags.password, 'password'),
            display_name: text(flags['display-name'], 'display-name'),
            country: text(flags.country, 'country'),
            vat: text(flags.vat, 'vat'),
            company: text(flags.company, 'company'),
            address: text(flags.address, 'address'),
            locale: text(flags.locale, 'locale'),
          },
          CLI,
        );
        return { id: user.id, login: user.login };
      },
      text: (r) => String(r.id),
    },
    {
      words: ['user', 'list'],
      usage: 'billing user list [--role <role>]',
      options: { role: { type: 'string' } },
      run: async ({ flags }) => (await identity.users.list({ role: text(flags.role, 'role') })).map(listed),
      text: (rows) => table(rows, ['id', 'login', 'email', 'display_name', 'role', 'created']),
    },
    {
      words: ['user', 'set-role'],
      usage: 'billing user set-role <login> <role>',
      arity: 2,
      run: async ({ args }) => {
        const user = await identity.users.setRole(args[0]!, args[1]!, CLI);
        return { id: user.id, login: user.login, role: user.role };
      },
      text: (r) => `User ${r.login} now has the role ${r.role}.`,
    },
    {
      // a restore without secrets brings users back without passwords: this gives one back
      words: ['user', 'set-password'],
      usage: 'billing user set-password <login> --password <p>',
      arity: 1,
      options: { password: { type: 'string' } },
      run: async ({ args, flags }) => {
        const password = text(flags.password, 'password');
        if (!password) throw new BillingError('billing_invalid_argument', '--password is required');
        await identity.users.setPassword(args[0]!, password, CLI);
        return { login: args[0], password_set: true };
      },
      text: (r) => `User ${r.login} has a new password.`,
    },
    {
      words: ['user', 'delete'],
      usage: 'billing user delete <login>',
      arity: 1,
      run: async ({ args }) => {
        const user = await identity.users.delete(args[0]!, CLI);
        return { id: user.id, login: user.login, deleted: true };
      },
      text: (r) => `User ${r.login} deleted.`,
    },
    {
      words: ['app-password', 'create'],
      usage: 'billing app-password create <login> [--name <n>]',
      arity: 1,
      options: { name: { type: 'string' } },
      run: async ({ args, flags }) => {
        const user = await identity.users.require(args[0]!);
        const name = text(flags.name, 'name') ?? `cli ${new Date().toISOString()}`;
        const created = await identity.appPasswords.create(user, name, CLI);
        return { uuid: created.uuid, name: created.name, password: created.password };
      },
      // the password is the last line, alone, so scripts can take it with `tail -n 1`
      text: (r) => `Application password "${r.name}" (${r.uuid}) created. It is shown only this once:\n${r.password}`,
    },
    {
      words: ['app-password', 'list'],
      usage: 'billing app-password list <login>',
      arity: 1,
      run: async ({ args }) => identity.appPasswords.list(await identity.users.require(args[0]!)),
      text: (rows) => table(rows, ['uuid', 'name', 'created', 'last_used', 'last_ip']),
    },
    {
      words: ['app-password', 'revoke'],
      usage: 'billing app-password revoke <login> <uuid>',
      arity: 2,
      run: async ({ args }) => {
        await identity.appPasswords.revoke(await identity.users.require(args[0]!), args[1]!, CLI);
        return { uuid: args[1], revoked: true };
      },
      text: (r) => `Application password ${r.uuid} revoked.`,
    },
  ];
}
