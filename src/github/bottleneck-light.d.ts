// The light build the Octokit plugins load (no Redis clustering), typed as the full one.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
