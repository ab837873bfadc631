/**
 * Arco Design's base stylesheet (tokens, normalize, dark theme variables). Component styles come
 * with each component, per page, through the build's per-component imports
 * (scripts/web-build-plugins.ts).
 */
import '@arco-design/web-react/es/style/index.css';
