/** Style sheets imported `with { type: 'text' }` (esbuild's text loader): their text. */
declare module '*.css' {
  const text: string;
  export default text;
}
