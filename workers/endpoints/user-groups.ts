import { z } from 'zod';
import { doCreateUserGroup } from '../actions/user-groups';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';

/** POST /user_groups/create (SPEC §Endpoints): the response is the bare envelope. */
export const postCreateUserGroup = userRoute(
  z.object({ name: z.string(), description: z.string(), members: param.intList() }),
  async ({ realm, user }, p) => {
    await doCreateUserGroup(realm, user, p.name, p.description, p.members);
    return {};
  },
);
