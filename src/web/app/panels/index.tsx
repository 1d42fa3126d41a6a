/** The panels the shell mounts, with the props of ./contracts. */
import '../../styles/panels.css';
import '../../styles/panels-dialogs.css';
import '../../styles/admin.css';

export { AdminDialog } from './admin-dialog';
export { MessageActions } from './message-actions';
export { PeopleList } from './people-list';
export { ProfileCard } from './profile-card';
export { ReactionBar } from './reaction-bar';
export { SettingsDialog } from './settings-dialog';
export { StatusDialog } from './status-dialog';
export { StreamsDialog } from './streams-dialog';
