// The reference page's own script, served from Workers static assets after Swagger UI's
// bundle: renders the OpenAPI document named by the page (`data-doc`, this language's `/doc`) in
// the element `#reference`. Kept out of the HTML so that the page's Content-Security-Policy can
// forbid inline scripts. Nothing is loaded from elsewhere: no validator badge, no remote config.
(() => {
  const root = document.getElementById("reference");
  if (!root || typeof window.SwaggerUIBundle !== "function") return;

  // No padlock on what anyone may use. `/doc` declares the public reads `security: [{}, basic,
  // bearer]` (anonymous, or signed in to see more), and Swagger UI draws its padlock for every
  // operation whose security is not `[{}]` alone. The summary is shown with `[{}]` for those; the
  // request itself still follows `/doc`, so "Authorize" keeps sending the credentials.
  const optionalSecurity = (system) => ({
    wrapComponents: {
      OperationSummary: (Original) => (props) => {
        const security = props.operationProps?.get("security");
        const anonymous = security?.filter?.((requirement) => requirement.isEmpty());
        if (!anonymous || anonymous.size === 0) return system.React.createElement(Original, props);
        const operationProps = props.operationProps.set("security", anonymous);
        return system.React.createElement(Original, { ...props, operationProps });
      },
    },
  });

  window.ui = window.SwaggerUIBundle({
    url: root.dataset.doc,
    domNode: root,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [optionalSecurity],
    layout: "BaseLayout",
    deepLinking: true,
    // The online validator would send the document to a third party (and fail offline).
    validatorUrl: null,
    displayRequestDuration: true,
    // Credentials entered under "Authorize" are forgotten with the tab, never stored.
    persistAuthorization: false,
  });
})();
