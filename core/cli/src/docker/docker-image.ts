/** The image `render --docker` runs: SEEKFRAME_DOCKER_IMAGE, else seekframe/render:<CLI version>. */
export function dockerImage(env: NodeJS.ProcessEnv, version: string): string {
  return env.SEEKFRAME_DOCKER_IMAGE?.trim() || `seekframe/render:${version}`;
}
