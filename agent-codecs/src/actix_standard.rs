//! The standard negotiation for actix-web (feature `actix`).

use std::sync::Arc;

use actix_web::web::Data;
use negotiate::actix::Negotiation;

use crate::standard::{SetupError, Standard};

impl Standard {
    /// What actix-web handlers returning [`Negotiated`](crate::actix::Negotiated)
    /// read from `App::app_data`: [`Standard::build`]'s negotiator and
    /// [`Standard::response_headers`].
    ///
    /// ```
    /// use actix_web::{App, web};
    /// use agent_codecs::actix::Negotiated;
    ///
    /// async fn items() -> Negotiated<Vec<&'static str>> {
    ///     Negotiated(vec!["apple", "pear"])
    /// }
    ///
    /// let negotiation = agent_codecs::standard().actix().unwrap();
    /// let app = App::new()
    ///     .app_data(negotiation)
    ///     .route("/items", web::get().to(items));
    /// ```
    ///
    /// # Errors
    ///
    /// A [`SetupError`], as for [`Standard::codecs`].
    #[cfg_attr(docsrs, doc(cfg(feature = "actix")))]
    pub fn actix(&self) -> Result<Data<Negotiation>, SetupError> {
        Ok(Negotiation::with_headers(
            Arc::new(self.build()?),
            self.response_headers(),
        ))
    }
}
