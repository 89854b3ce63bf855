import { createActorContext } from '@xstate/react';
import { notificationsMachine } from '../../../machines/notifications.machine';

/** One paging actor per panel or page: opening either starts again at page 1. */
export const Feed = createActorContext(notificationsMachine);
