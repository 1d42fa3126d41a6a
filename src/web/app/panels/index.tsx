/**
 * The panels the shell mounts. Placeholders until the panels land: each renders nothing, so
 * the shell can be built and tested against the contract meanwhile.
 */
import type { DialogProps, MessageActionsProps, PeopleListProps, ReactionBarProps } from './contracts';

export function PeopleList(_props: PeopleListProps) {
  return null;
}

export function ReactionBar(_props: ReactionBarProps) {
  return null;
}

export function MessageActions(_props: MessageActionsProps) {
  return null;
}

export function SettingsDialog(_props: DialogProps) {
  return null;
}

export function StatusDialog(_props: DialogProps) {
  return null;
}

export function StreamsDialog(_props: DialogProps) {
  return null;
}

export function AdminDialog(_props: DialogProps) {
  return null;
}
