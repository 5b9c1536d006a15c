import { canSee } from './access';
import { orgIssues, spaceIssues } from './issues';
import type { Actor } from './records';
import { allSpaces, requireSpace } from './spaces';

/** Labels of the issues the actor sees (in one space, or all), most used first, then by name. */
export async function labelsOf(actor: Actor, spaceRef?: string): Promise<string[]> {
  const spaces = new Map((await allSpaces(actor.orgId)).map((s) => [s.spaceId, s]));
  const issues = spaceRef
    ? await spaceIssues(actor.orgId, (await requireSpace(actor, spaceRef)).spaceId)
    : await orgIssues(actor.orgId);
  const counts = new Map<string, number>();
  for (const issue of issues) {
    const space = spaces.get(issue.spaceId);
    if (!space || !canSee(issue, space, actor)) continue;
    for (const l of issue.labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([l]) => l);
}
