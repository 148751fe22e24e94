/**
 * The members of an organization or a group: a table with a remove button
 * per member and a form that adds one by email or user id. `path` answers
 * GET with the members and POST/DELETE with `{members: [user id]}`.
 */
import { useState } from 'preact/hooks';
import { listOf, userIdFor } from '../api.js';
import { href } from '../router.js';
import { Field, Form, ListSection, useApi, useLoad } from '../ui.js';

interface Member {
  /** Organization members carry `user_id`, group members `id`. */
  user_id?: string;
  id?: string;
  email?: string;
  name?: string;
}

export function Members({ path, owner }: { path: string; owner: string }) {
  const api = useApi();
  const members = useLoad(async () => listOf<Member>(await api.get(path), 'members').map((m) => ({ ...m, user_id: m.user_id ?? m.id })), [path]);
  const [who, setWho] = useState('');
  return (
    <ListSection
      title="Members"
      caption={`Members of ${owner}`}
      empty="No members."
      rows={members}
      columns={[
        { title: 'Member', cell: (m) => (m.user_id ? <a href={href('users', m.user_id)}>{m.email ?? m.name ?? m.user_id}</a> : (m.email ?? '')) },
        { title: 'User ID', cell: (m) => <code>{m.user_id}</code> },
      ]}
      action={{ label: (m) => `Remove ${m.email ?? m.user_id ?? 'member'}`, run: (m) => api.del(path, { members: [m.user_id] }) }}
    >
      <Form
        title="Add a member"
        level={3}
        submit="Add member"
        onSubmit={async () => {
          await api.post(path, { members: [await userIdFor(api, who)] });
          setWho('');
          members.reload();
          return 'Member added.';
        }}
      >
        <Field label="User email or ID" value={who} onValue={setWho} required />
      </Form>
    </ListSection>
  );
}
