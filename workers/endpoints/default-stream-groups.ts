import { z } from 'zod';
import {
  doChangeDefaultStreamGroupStreams,
  doCreateDefaultStreamGroup,
  doRemoveDefaultStreamGroup,
  doUpdateDefaultStreamGroup,
} from '../actions/default-stream-groups';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

const streamNames = json(z.array(z.string()));

/** POST /default_stream_groups/create (api-notes §a). */
export const postDefaultStreamGroup = userRoute(
  z.object({ group_name: z.string(), description: z.string(), stream_names: streamNames }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doCreateDefaultStreamGroup(realm, user, p.group_name, p.description, p.stream_names);
    return {};
  },
);

/** PATCH /default_stream_groups/{group_id}. */
export const patchDefaultStreamGroup = userRoute(
  z.object({ group_id: param.id(), new_group_name: z.string().optional(), new_description: z.string().optional() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateDefaultStreamGroup(realm, user, p.group_id, { newName: p.new_group_name, newDescription: p.new_description });
    return {};
  },
);

/** PATCH /default_stream_groups/{group_id}/streams. */
export const patchDefaultStreamGroupStreams = userRoute(
  z.object({ group_id: param.id(), op: z.string(), stream_names: streamNames }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doChangeDefaultStreamGroupStreams(realm, user, p.group_id, p.op, p.stream_names);
    return {};
  },
);

/** DELETE /default_stream_groups/{group_id}. */
export const deleteDefaultStreamGroup = userRoute(z.object({ group_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doRemoveDefaultStreamGroup(realm, user, p.group_id);
  return {};
});
