import { PROJECT_NOT_FOUND } from '../projects/records';
import { START_FAILED } from './launch';

/** The deployments group's error messages, exactly as spec part A words them. */
export const M = {
  projectNotFound: PROJECT_NOT_FOUND,
  deploymentNotFound: 'Deployment not found',
  notFound: 'Not found',
  commitNotFound: 'Commit not found',
  gitNeeds: 'A git deployment needs branch and commitSha.',
  uploadNeeds: 'An upload deployment needs uploadId and target.',
  linkRepo: 'Link a repository to this project first.',
  uploadMissing: "The upload wasn't found. Upload the archive first.",
  tooLarge: 'The archive is larger than 250 MB.',
  startFailed: START_FAILED,
  inProgress: 'This deployment is still in progress.',
  uploadExpired: 'This upload has expired. Deploy again from your terminal.',
  noCommit: 'This deployment has no commit to build.',
  expired: 'This deployment has expired. Redeploy it instead.',
  notReady: 'Only ready deployments can be promoted.',
  alreadyProduction: 'This is already the production deployment.',
  functionRemoved: "This deployment's server function was removed. Redeploy it instead.",
  routingFailed: "Couldn't update production routing. Try again.",
  alreadyFinished: 'This deployment has already finished.',
  alreadyCanceled: 'This deployment was already canceled.',
} as const;
